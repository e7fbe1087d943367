package bench.text;

import com.google.common.base.CharMatcher;

public class Cleaner {
  public String clean(String text) {
    return CharMatcher.WHITESPACE.trimAndCollapseFrom(text, ' ');
  }

  public boolean plain(String text) {
    return CharMatcher.ASCII.matchesAllOf(text);
  }
}
