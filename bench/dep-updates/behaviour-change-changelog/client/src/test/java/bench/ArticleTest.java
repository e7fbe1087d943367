package bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ArticleTest {
  @Test
  void pathIsLowerCase() {
    assertEquals("/articles/hello-maven-world", new Article("Hello Maven World").path());
  }
}
