package com.acme.weather;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TemperatureTest {

    @Test
    void boilingPoint() {
        assertEquals(212.0, new Temperature().toFahrenheit(100.0));
    }
}
