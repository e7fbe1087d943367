package com.acme.till;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReceiptTest {

    @Test
    void rendersTheExpectedReceipt() throws IOException {
        try (InputStream in = ReceiptTest.class.getResourceAsStream("/expected/receipt.txt")) {
            String expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(expected, Receipt.render(List.of("coffee", "cake"), List.of(250, 400)));
        }
    }
}
