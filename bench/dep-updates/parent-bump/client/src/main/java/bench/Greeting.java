package bench;

import mvnxbench.shapes.Strings;

public class Greeting {
  public String name(String preferred, String fallback) {
    return Strings.firstNonEmpty(preferred, fallback);
  }

  public boolean empty(String text) {
    return Strings.isBlank(text);
  }
}
