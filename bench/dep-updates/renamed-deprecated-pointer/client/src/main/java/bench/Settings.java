package bench;

import mvnxbench.shapes.Registry;

public class Settings {
  public String mode(Registry registry) {
    String mode = registry.lookup("mode");
    return mode == null ? "default" : mode;
  }
}
