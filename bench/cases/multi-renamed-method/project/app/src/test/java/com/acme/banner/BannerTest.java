package com.acme.banner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BannerTest {

    @Test
    void framesGreeting() {
        assertEquals("*** Hello, Ada ***", new Banner().render("Ada"));
    }
}
