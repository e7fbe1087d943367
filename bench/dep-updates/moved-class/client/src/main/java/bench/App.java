package bench;

import mvnxbench.shapes.util.TextUtils;

public class App {
  public String greet(String name) {
    return TextUtils.shout("hello " + name);
  }
}
