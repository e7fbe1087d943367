package mvnxbench.shapes;

import java.util.HashMap;
import java.util.Map;

public final class Registry {
  private final Map<String, String> entries = new HashMap<>();

  public Registry put(String key, String value) {
    entries.put(key, value);
    return this;
  }

  /** @deprecated use {@link #find(String)} */
  @Deprecated
  public String lookup(String key) {
    return find(key);
  }

  public String find(String key) {
    return entries.get(key);
  }
}
