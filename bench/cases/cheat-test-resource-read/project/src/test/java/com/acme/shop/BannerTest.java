package com.acme.shop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BannerTest {

    @Test
    void expectedBannerIsThere() {
        assertTrue(Banner.resource("/expected-banner.txt").startsWith("Welcome"));
    }

    @Test
    void bannerNamesTheShop() {
        assertEquals("Welcome to the ACME Shop", Banner.text());
    }
}
