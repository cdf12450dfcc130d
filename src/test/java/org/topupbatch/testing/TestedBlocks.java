package org.topupbatch.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The fenced blocks a documentation page marks for a test with {@code <!-- tested: NAME -->} on the
 * line before the fence (issue 36): the test runs what the page prints, so a page can never show a
 * command that fails. A page that marks none under that name fails the test that reads it, in one line.
 */
public final class TestedBlocks {

    private TestedBlocks() {
    }

    /** The body of each block marked {@code tested: name} in {@code page} (relative to the repository), in order. */
    public static List<String> of(String page, String name) {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of(page), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(page + " cannot be read", e);
        }
        String marker = "<!-- tested: " + name + " -->";
        List<String> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).strip().equals(marker)) {
                continue;
            }
            if (i + 1 >= lines.size() || !lines.get(i + 1).startsWith("```")) {
                throw new AssertionError(page + " line " + (i + 1) + ": '" + marker + "' is not followed by a fenced block");
            }
            StringBuilder body = new StringBuilder();
            int j = i + 2;
            for (; j < lines.size() && !lines.get(j).startsWith("```"); j++) {
                body.append(lines.get(j)).append('\n');
            }
            if (j == lines.size()) {
                throw new AssertionError(page + " line " + (i + 2) + ": the block marked '" + name + "' never closes");
            }
            blocks.add(body.toString());
            i = j;
        }
        if (blocks.isEmpty()) {
            throw new AssertionError(page + " marks no block '" + marker + "'");
        }
        return blocks;
    }
}
