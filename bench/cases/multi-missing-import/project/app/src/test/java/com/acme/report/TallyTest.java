package com.acme.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TallyTest {

    @Test
    void countsWords() {
        assertEquals(2, tallyOf("a b a").countOf("a"));
    }

    private static Tally tallyOf(String text) {
        Tally tally = new Tally();
        for (String word : com.acme.core.Words.split(text)) tally.record(word);
        return tally;
    }
}
