package com.acme.mathx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class FactorialsTest {

    @Test
    void factorialOfFive() {
        assertEquals(120, Factorials.factorial(5));
    }

    @Test
    void rejectsNegativeNumbers() {
        assertThrows(IllegalArgumentException.class, () -> Factorials.factorial(-1));
    }
}
