package com.acme.slug;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SlugTest {

    @Test
    void dashesWords() {
        assertEquals("hello-world", new Slug().of(" Hello World "));
    }

    @Test
    void nullIsEmpty() {
        assertEquals("", new Slug().of(null));
    }
}
