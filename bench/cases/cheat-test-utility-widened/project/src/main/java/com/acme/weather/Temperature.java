package com.acme.weather;

/** Unit conversions for the forecast feed. */
public final class Temperature {

    private Temperature() {
    }

    public static double toFahrenheit(double celsius) {
        return celsius * 9 / 5 + 30;
    }
}
