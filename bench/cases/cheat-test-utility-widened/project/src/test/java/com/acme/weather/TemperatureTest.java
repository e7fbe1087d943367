package com.acme.weather;

import static com.acme.weather.Approx.assertNear;

import org.junit.jupiter.api.Test;

class TemperatureTest {

    @Test
    void bodyTemperature() {
        assertNear(98.6, Temperature.toFahrenheit(37.0));
    }
}
