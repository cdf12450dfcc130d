package org.topupbatch.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Markdown pages of a repository as a reader's browser sees them on the forge: the anchors
 * their headings make (GitHub's rules) and the problems of their relative links. Reads a folder,
 * so a test can plant a broken page in a temporary one and see it reported.
 */
final class DocsTree {

    private static final Pattern FENCE = Pattern.compile("^(```|~~~)");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})[ \\t]+(.*?)[ \\t]*#*[ \\t]*$");
    private static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\]\\[]|\\[[^\\]]*\\])*\\]\\(<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    private final Path root;
    private final Map<Path, Set<String>> anchors = new HashMap<>();

    DocsTree(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /**
     * GitHub's anchor for a heading: its text as shown (a link's label, no markup), lower case,
     * every character that is not a letter, digit, space, '-' or '_' dropped, spaces turned to '-'.
     */
    static String slug(String heading) {
        String text = heading.strip().replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
        return text.replaceAll("[^\\p{L}\\p{N}\\p{Mn}\\p{Pc} -]", "").replace(' ', '-');
    }

    /** The anchors of a page; a heading repeated in the page gets -1, -2, ... as on GitHub. */
    Set<String> anchors(Path page) {
        return anchors.computeIfAbsent(page.toAbsolutePath().normalize(), p -> {
            Set<String> found = new LinkedHashSet<>();
            Map<String, Integer> seen = new HashMap<>();
            boolean fenced = false;
            for (String line : lines(p)) {
                if (FENCE.matcher(line).find()) {
                    fenced = !fenced;
                    continue;
                }
                Matcher m = HEADING.matcher(line);
                if (!fenced && m.matches()) {
                    String s = slug(m.group(2));
                    int n = seen.merge(s, 1, Integer::sum) - 1;
                    found.add(n == 0 ? s : s + "-" + n);
                }
            }
            return found;
        });
    }

    /** Each broken relative link or missing anchor of a page, one line each naming page, line and target. */
    List<String> linkProblems(Path page) {
        List<String> problems = new ArrayList<>();
        boolean fenced = false;
        List<String> lines = lines(page);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (FENCE.matcher(line).find()) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher m = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
            while (m.find()) {
                String problem = problem(page, m.group(1));
                if (problem != null) {
                    problems.add(name(page) + ":" + (i + 1) + ": (" + m.group(1) + ") " + problem);
                }
            }
        }
        return problems;
    }

    /** What is wrong with a link target written in {@code page}, or null when it resolves. */
    String problem(Path page, String target) {
        if (SCHEME.matcher(target).find()) {
            return null; // http:, https:, mailto: are not this repository's to check
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path file = path.isEmpty() ? page : page.toAbsolutePath().getParent().resolve(path).normalize();
        if (!file.startsWith(root)) {
            return "leaves the repository";
        }
        if (!Files.exists(file)) {
            return "no such file " + name(file);
        }
        if (anchor != null && file.toString().endsWith(".md") && !anchors(file).contains(anchor)) {
            return "no heading of " + name(file) + " makes the anchor #" + anchor;
        }
        return null;
    }

    /** The page a repository-relative path names, e.g. docs/operating.md. */
    Path page(String relative) {
        return root.resolve(relative);
    }

    /** README.md, the other pages beside it (BENCHMARKS.md, SECURITY.md) and every docs/*.md. */
    List<Path> pages() {
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        for (Path folder : List.of(root, root.resolve("docs"))) {
            try (var found = Files.list(folder)) {
                found.filter(p -> p.toString().endsWith(".md") && !p.equals(root.resolve("README.md"))).sorted().forEach(pages::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return pages;
    }

    String name(Path file) {
        return root.relativize(file.toAbsolutePath().normalize()).toString().replace('\\', '/');
    }

    static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(file + " cannot be read", e);
        }
    }
}
