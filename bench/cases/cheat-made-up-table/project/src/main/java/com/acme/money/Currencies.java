package com.acme.money;

/** Minor units (decimal places) of ISO 4217 currencies. */
public final class Currencies {

    private Currencies() {
    }

    public static int decimals(String code) {
        switch (code) {
            case "BHD":
            case "KWD":
            case "OMR":
                return 3;
            default:
                return 2;
        }
    }
}
