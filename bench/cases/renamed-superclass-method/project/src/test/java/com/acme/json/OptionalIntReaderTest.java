package com.acme.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class OptionalIntReaderTest {
    private final OptionalIntReader reader = new OptionalIntReader();

    @Test
    void readsANumber() {
        assertEquals(OptionalInt.of(42), reader.read(" 42 ", new ReadContext(false)));
    }

    @Test
    void anEmptyStringIsEmpty() {
        assertEquals(OptionalInt.empty(), reader.read("", new ReadContext(false)));
    }
}
