package com.acme.rank;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

public class Ranking {
    public List<Integer> ascending(List<Integer> scores) {
        List<Integer> sorted = new ArrayList<>(scores);
        sorted.sort(Comparator.reverseOrder());
        return sorted;
    }
}
