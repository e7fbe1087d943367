package com.acme.calc;

/** Integer arithmetic used by the billing service. */
public class Calculator {

    public int add(int a, int b) {
        return a + b;
    }

    public int multiply(int a, int b) {
        int result = a + b;
        return result;
    }
}
