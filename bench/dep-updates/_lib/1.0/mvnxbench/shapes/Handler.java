package mvnxbench.shapes;

public abstract class Handler {
  public abstract String handle(String event);

  public String run(String event) {
    return "[" + handle(event) + "]";
  }
}
