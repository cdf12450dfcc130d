package org.topupbatch.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The dashboard's picture in the documentation (docs/operating.md#dashboard-health-and-metrics), taken by
 * the browser test so that it shows the page as the code draws it today. The test always keeps its
 * shot as target/dashboard.png; it rewrites docs/images/dashboard.png only when asked
 * ({@code -Ddocs.screenshots=true}, docs/development.md), so that a test run never changes a checkout.
 * {@link DashboardScreenshotTest} checks that the committed picture is there, a PNG of this size.
 */
public final class DashboardScreenshot {

    /** The page's size in the picture (CSS pixels at scale 1): the whole dashboard with one batch, no scroll bar. */
    public static final int WIDTH = 1280;
    public static final int HEIGHT = 600;
    /** Small enough for the repository and for a page on a slow link. */
    static final long MAX_BYTES = 200_000;
    /** Where the docs show it, from the repository's root. */
    static final Path IN_DOCS = Path.of("docs", "images", "dashboard.png");
    private static final String ASKED = "docs.screenshots";

    private DashboardScreenshot() {
    }

    /**
     * Keeps a shot: as {@code target/dashboard.png} beside the built jar (where CI collects test
     * artifacts), and as the docs' picture too when {@code -Ddocs.screenshots=true}. Returns the kept
     * target/ copy.
     */
    public static Path keep(Path shot, Path builtJar) throws IOException {
        Path target = builtJar.toAbsolutePath().getParent();
        Path kept = Files.copy(shot, target.resolve("dashboard.png"), StandardCopyOption.REPLACE_EXISTING);
        if (Boolean.getBoolean(ASKED)) {
            Path docs = target.getParent().resolve(IN_DOCS);
            Files.createDirectories(docs.getParent());
            Files.copy(shot, docs, StandardCopyOption.REPLACE_EXISTING);
            System.out.println("DASHBOARD SCREENSHOT written to " + docs + " (" + Files.size(docs) + " bytes)");
        }
        return kept;
    }
}
