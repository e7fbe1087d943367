package bench;

import mvnxbench.shapes.Slugs;

public class Article {
  private final String title;

  public Article(String title) {
    this.title = title;
  }

  public String path() {
    return "/articles/" + Slugs.slug(title);
  }
}
