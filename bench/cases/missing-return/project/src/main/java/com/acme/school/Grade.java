package com.acme.school;

public class Grade {
    public String letterFor(int score) {
        if (score >= 90) {
            return "A";
        } else if (score >= 75) {
            return "B";
        }
    }
}
