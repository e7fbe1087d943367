package com.acme.report;

import com.acme.money.Money;
import java.util.List;
import java.util.Map;

/** Shows rows read from a CSV export, where every value is still text. */
public class Report {
    public int count(List<Map<String, String>> rows) {
        return rows.size();
    }

    public String firstAmount(List<Map<String, String>> rows) {
        return "first " + Money.format(rows.get(0).get("amount"));
    }
}
