package com.acme.greet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GreeterTest {

    @Test
    void greetingNamesTheVisitor() {
        assertTrue(new Greeter().greet("Bob").contains("Bob"));
    }

    @Test
    void greetingIsPunctuated() {
        assertEquals("Hello, Ada!", new Greeter().greet("Ada"));
    }
}
