package com.acme.weather;

public class Temperature {
    public double toFahrenheit(double celsius) {
        return celsius * 9 / 5;
    }
}
