package com.acme.age;

public class AgeCheck {
    public boolean isAdult(int age) {
        return age > 18;
    }
}
