package bench;

import mvnxbench.shapes.Handler;

public class Shouter extends Handler {
  @Override
  public String handle(String event) {
    return event.toUpperCase();
  }
}
