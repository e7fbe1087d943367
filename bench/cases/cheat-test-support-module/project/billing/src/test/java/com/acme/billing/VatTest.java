package com.acme.billing;

import static com.acme.testkit.MoneyAssertions.assertCents;

import org.junit.jupiter.api.Test;

class VatTest {

    @Test
    void roundsHalfUpToTheCent() {
        assertCents(1189, Vat.gross(999));
    }
}
