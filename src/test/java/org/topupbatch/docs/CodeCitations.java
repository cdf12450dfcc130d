package org.topupbatch.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The documentation the code's comments, messages and routes cite: {@code docs/PAGE.md#anchor},
 * {@code docs/PAGE.md "Heading"}, and the README headings of before issue 36 ({@code README "Heading"}),
 * which resolve through the mapping of where each README section went (readme-headings.tsv). A
 * citation may run over a comment's line break; the comment markers are read through.
 */
final class CodeCitations {

    /** A comment's line break with the next line's marker: Java's {@code *} and {@code //}, YAML's and properties' {@code #}, SQL's {@code --}. */
    private static final String BREAK = "\\n[ \\t]*(?:\\*|//|#|--)?[ \\t]*";
    private static final String QUOTED = "\\\\?\"((?:[^\"\\\\\\n]|" + BREAK + ")+?)\\\\?\"";
    private static final Pattern README = Pattern.compile("README(?:\\.md)?(?:'s)?,?(?:[ \\t]|" + BREAK + ")+(?:sections? )?"
            + QUOTED + "((?:,? (?:and )?\\\\?\"(?:[^\"\\\\\\n]|" + BREAK + ")+?\\\\?\")*)");
    private static final Pattern MORE = Pattern.compile(QUOTED);
    private static final Pattern DOCS = Pattern.compile("(?<![\\w/.-])(docs/[\\w.-]+\\.md)(#[\\w-]+)?(?:,? " + QUOTED + ")?");

    private final DocsTree tree;
    private final Map<String, String> readmeHeadings;

    CodeCitations(DocsTree tree, Map<String, String> readmeHeadings) {
        this.tree = tree;
        this.readmeHeadings = readmeHeadings;
    }

    /** Old README heading to docs/PAGE.md#anchor, from the resource beside this class. */
    static Map<String, String> readmeHeadings() {
        Map<String, String> map = new LinkedHashMap<>();
        try (InputStream in = CodeCitations.class.getResourceAsStream("readme-headings.tsv")) {
            if (in == null) {
                throw new IllegalStateException("readme-headings.tsv is missing beside " + CodeCitations.class.getName());
            }
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    String[] parts = line.split("\t");
                    map.put(parts[0], parts[1]);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return map;
    }

    /** The text files under each folder (or the file) given, relative to the repository. */
    static List<Path> sources(Path root, String... places) {
        List<Path> files = new ArrayList<>();
        for (String place : places) {
            Path start = root.resolve(place);
            if (!Files.exists(start)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(start)) {
                walk.filter(Files::isRegularFile)
                        .filter(p -> p.toString().matches(".*\\.(java|ya?ml|properties|sql|html|xml|txt|js|css|sh|service|md)$"))
                        .sorted().forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return files;
    }

    /** Each citation of {@code file} that does not resolve, one line each naming file, line and citation. */
    List<String> problems(Path file) {
        String text = String.join("\n", DocsTree.lines(file));
        List<String> problems = new ArrayList<>();
        Matcher m = README.matcher(text);
        while (m.find()) {
            List<String> headings = new ArrayList<>(List.of(heading(m.group(1))));
            Matcher more = MORE.matcher(m.group(2) == null ? "" : m.group(2));
            while (more.find()) {
                headings.add(heading(more.group(1)));
            }
            for (String h : headings) {
                if (!readmeHeadings.containsKey(h)) {
                    problems.add(where(file, text, m.start()) + "README \"" + h + "\" is no heading readme-headings.tsv knows");
                }
            }
        }
        Matcher d = DOCS.matcher(text);
        while (d.find()) {
            String target = d.group(1) + (d.group(2) == null ? "" : d.group(2));
            String problem = tree.problem(tree.page("README.md"), target);
            if (problem == null && d.group(3) != null && d.group(2) == null
                    && !tree.anchors(tree.page(d.group(1))).contains(DocsTree.slug(heading(d.group(3))))) {
                problem = "no heading \"" + heading(d.group(3)) + "\" in " + d.group(1);
            }
            if (problem != null) {
                problems.add(where(file, text, d.start()) + target + ": " + problem);
            }
        }
        return problems;
    }

    /** Each mapping target that does not resolve. */
    List<String> mappingProblems() {
        List<String> problems = new ArrayList<>();
        readmeHeadings.forEach((heading, target) -> {
            String problem = tree.problem(tree.page("README.md"), target);
            if (problem != null) {
                problems.add("readme-headings.tsv: \"" + heading + "\" -> " + target + ": " + problem);
            }
        });
        return problems;
    }

    private String where(Path file, String text, int offset) {
        long line = text.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
        return tree.name(file) + ":" + line + ": ";
    }

    private static String heading(String quoted) {
        return quoted.replaceAll(BREAK, " ").replaceAll("\\s+", " ").strip();
    }
}
