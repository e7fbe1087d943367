package com.example.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MoneyTest {
    @Test
    void addsCents() {
        assertEquals(new Money(250), new Money(100).plus(new Money(150)));
    }
}
