package com.acme.bank;

/** Savings interest, compounded once a year. */
public final class Interest {

    private Interest() {
    }

    public static double compound(double principal, double yearlyRate, int years) {
        return principal * (1 + yearlyRate * years);
    }
}
