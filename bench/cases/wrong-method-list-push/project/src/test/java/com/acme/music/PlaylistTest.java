package com.acme.music;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PlaylistTest {

    @Test
    void addsSongs() {
        assertEquals(2, new Playlist().with("a").with("b").length());
    }
}
