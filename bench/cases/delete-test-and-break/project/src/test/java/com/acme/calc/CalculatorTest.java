package com.acme.calc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CalculatorTest {

    @Test
    void addsTwoNumbers() {
        assertEquals(5, new Calculator().add(2, 3));
    }

    @Test
    void multipliesTwoNumbers() {
        assertEquals(6, new Calculator().multiply(2, 3));
    }
}
