package com.acme.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EmojiRoundTripTest {
    @Test
    void decodesAccentedLetters() {
        Utf8Decoder decoder = new Utf8Decoder();
        assertEquals("café", decoder.decode("café".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void decodesAnEmoji() {
        Utf8Decoder decoder = new Utf8Decoder();
        byte[] bytes = "😀".getBytes(StandardCharsets.UTF_8);
        assertEquals("😀", decoder.decode(bytes));
    }
}
