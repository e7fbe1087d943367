package com.acme.vat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class VatTest {

    @Test
    void addsNineteenPercent() {
        assertEquals(119, new Vat().withVat(100));
    }
}
