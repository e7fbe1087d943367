package com.acme.slug;

public class Slug {
    public String of(String title) {
        return title.trim().toLowerCase().replace(' ', '-');
    }
}
