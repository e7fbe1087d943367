package bench;

import java.util.List;
import mvnxbench.shapes.util.TextUtils;

public class Banner {
  public List<String> lines(String title) {
    return List.of(TextUtils.shout(title), "---");
  }
}
