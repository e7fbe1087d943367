package com.acme.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RankingTest {

    @Test
    void sortsUp() {
        assertEquals(java.util.List.of(1, 2, 3), new Ranking().ascending(java.util.List.of(3, 1, 2)));
    }
}
