package com.acme.music;

import java.util.ArrayList;
import java.util.List;

public class Playlist {
    private final List<String> songs = new ArrayList<>();

    public Playlist with(String song) {
        songs.push(song);
        return this;
    }

    public int length() {
        return songs.size();
    }
}
