package com.acme.report;

public class Tally {
    private final Map<String, Integer> counts = new HashMap<>();

    public void record(String word) {
        counts.merge(word, 1, Integer::sum);
    }

    public int countOf(String word) {
        return counts.getOrDefault(word, 0);
    }
}
