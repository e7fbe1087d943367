package bench;

import com.google.common.base.Objects;

public class Names {
  public String display(String nick, String name) {
    return Objects.firstNonNull(nick, name);
  }
}
