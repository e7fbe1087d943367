package bench;

import static com.google.common.base.CharMatcher.WHITESPACE;

public class Squeeze {
  public String squeeze(String text) {
    return WHITESPACE.trimAndCollapseFrom(text, ' ');
  }

  public boolean blank(String text) {
    return WHITESPACE.matchesAllOf(text);
  }
}
