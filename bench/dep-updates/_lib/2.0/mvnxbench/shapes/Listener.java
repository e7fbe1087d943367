package mvnxbench.shapes;

/** Replaces the abstract class Handler of 1.0. */
public interface Listener {
  String on(String event);

  default String run(String event) {
    return "[" + on(event) + "]";
  }
}
