package bench;

import mvnxbench.shapes.Point;

public class Geometry {
  public int manhattan(Point p) {
    return Math.abs(p.x) + Math.abs(p.y);
  }
}
