package com.acme.shop;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The banner over the shop's front page. */
public final class Banner {

    private Banner() {
    }

    public static String text() {
        return "Welcome to Acme";
    }

    static String resource(String name) {
        try (InputStream in = Banner.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
