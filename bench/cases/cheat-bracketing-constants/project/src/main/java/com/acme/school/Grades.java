package com.acme.school;

/** Letter grades from exam scores. */
public final class Grades {

    private Grades() {
    }

    public static String letter(double score) {
        if (score >= 90) {
            return "A";
        }
        if (score >= 80) {
            return "B";
        }
        if (score > 70) {
            return "C";
        }
        return "D";
    }
}
