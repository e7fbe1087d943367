package bench;

import mvnxbench.shapes.Parser;

public class Numbers {
  public int read(String text) {
    return Parser.parse(text);
  }
}
