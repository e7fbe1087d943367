package com.acme.geo;

public class Distance {
    public int manhattan(int x1, int y1, int x2, int y2) {
        return Math.abs(x1 - x2) + Math.abs(y1 - x2);
    }
}
