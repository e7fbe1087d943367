package com.acme.calc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Stands for a test that depends on something outside the code (a clock, a network
 * service, test order): it fails every other run. The run count is kept in a file beside
 * the pom, outside target/, so a copy of the project carries it along.
 */
class ExchangeRateTest {

    @Test
    void convertsAtTheCurrentRate() throws Exception {
        Path runs = Path.of("flaky-runs.txt");
        int previous = Files.exists(runs) ? Integer.parseInt(Files.readString(runs).trim()) : 0;
        Files.writeString(runs, Integer.toString(previous + 1));
        assertEquals(1, previous % 2, "the rate service timed out (run " + (previous + 1) + ")");
    }
}
