import { staleOverrideFixer } from '../../../../src/repair/fixers/stale-override.js';
import { PROJECT_ROOT, testFixer } from '../../../helpers/fixer-tester.js';

const F = 'src/main/java/com/acme/ui/CloseHandler.java';
const java = (...lines: string[]) => `${lines.join('\n')}\n`;
const MESSAGE = 'method does not override or implement a method from a supertype';
/** javac points at the annotation's `@`. */
const stale = (line: number, column: number) => `[ERROR] ${PROJECT_ROOT}/${F}:[${line},${column}] ${MESSAGE}`;
/** A listener implementation; `members` are its body's lines (line 6 onwards). */
const handler = (...members: string[]) =>
  java(
    'package com.acme.ui;',
    '',
    'import com.acme.events.WindowListener;',
    '',
    'public class CloseHandler implements WindowListener {',
    ...members,
    '}',
  );

testFixer(staleOverrideFixer, [
  {
    name: 'removes the @Override line of a method whose supertype method is gone',
    files: { [F]: handler('  @Override', '  public void windowClosed(Event event) {', '    save();', '  }') },
    log: [stale(6, 3)],
    edit: { [F]: handler('  public void windowClosed(Event event) {', '    save();', '  }') },
    reason: `${MESSAGE}: remove the @Override at ${F}:6`,
  },
  {
    name: 'reads the real Maven log, where each error is printed twice',
    files: { [F]: handler('  @Override', '  public void windowClosed(Event event) {}') },
    log: [
      '[INFO] --- maven-compiler-plugin:3.13.0:compile (default-compile) @ ui ---',
      '[INFO] -------------------------------------------------------------',
      '[ERROR] COMPILATION ERROR : ',
      '[INFO] -------------------------------------------------------------',
      stale(6, 3),
      '[INFO] 1 error',
      '[INFO] BUILD FAILURE',
      '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:compile (default-compile) on project ui: Compilation failure',
      stale(6, 3),
    ],
    edit: { [F]: handler('  public void windowClosed(Event event) {}') },
  },
  {
    name: 'removes an @Override written on the line of the method, keeping the method',
    files: { [F]: handler('  @Override public void windowClosed(Event event) {}') },
    log: [stale(6, 3)],
    edit: { [F]: handler('  public void windowClosed(Event event) {}') },
  },
  {
    name: 'removes @java.lang.Override and keeps the other annotations',
    files: {
      [F]: handler(
        '  @Deprecated',
        '  @java.lang.Override',
        '  @SuppressWarnings({"unused", "rawtypes"})',
        '  protected synchronized <T> List<T>[] windowClosed(Event event) { return null; }',
      ),
    },
    log: [stale(7, 3)],
    edit: {
      [F]: handler(
        '  @Deprecated',
        '  @SuppressWarnings({"unused", "rawtypes"})',
        '  protected synchronized <T> List<T>[] windowClosed(Event event) { return null; }',
      ),
    },
  },
  {
    name: 'removes only the @Override of a line that holds other annotations',
    files: { [F]: handler('  @Deprecated @Override @Nullable', '  public String windowTitle() { return null; }') },
    log: [stale(6, 15)],
    edit: { [F]: handler('  @Deprecated @Nullable', '  public String windowTitle() { return null; }') },
  },
  {
    name: 'keeps a comment written after the annotation',
    files: { [F]: handler('  @Override // was in WindowListener 1.x', '  public void windowClosed(Event event) {}') },
    log: [stale(6, 3)],
    edit: { [F]: handler('  // was in WindowListener 1.x', '  public void windowClosed(Event event) {}') },
  },
  {
    name: 'removes it from a method of an anonymous class',
    files: {
      [F]: handler(
        '  Runnable register(Window window) {',
        '    window.add(new WindowAdapter() {',
        '      @Override',
        '      public void windowClosed(Event event) {}',
        '    });',
        '    return null;',
        '  }',
      ),
    },
    log: [stale(8, 7)],
    edit: {
      [F]: handler(
        '  Runnable register(Window window) {',
        '    window.add(new WindowAdapter() {',
        '      public void windowClosed(Event event) {}',
        '    });',
        '    return null;',
        '  }',
      ),
    },
  },
  {
    name: 'removes every stale @Override of a file in one change',
    files: {
      [F]: handler(
        '  @Override',
        '  public void windowClosed(Event event) {}',
        '',
        '  @Override',
        '  public void windowIconified(Event event) {}',
      ),
    },
    log: [stale(6, 3), stale(9, 3)],
    edit: {
      [F]: handler('  public void windowClosed(Event event) {}', '', '  public void windowIconified(Event event) {}'),
    },
    reason: `remove the @Override at ${F}:6, 9`,
  },
  {
    name: 'counts a tab as javac does, to the next multiple of eight',
    files: { [F]: handler('\t@Override', '\tpublic void windowClosed(Event event) {}') },
    log: [stale(6, 9)],
    edit: { [F]: handler('\tpublic void windowClosed(Event event) {}') },
  },
  {
    name: 'keeps the line ends of a CRLF file',
    files: { [F]: handler('  @Override', '  public void windowClosed(Event event) {}').replace(/\n/g, '\r\n') },
    log: [stale(6, 3)],
    edit: { [F]: handler('  public void windowClosed(Event event) {}').replace(/\n/g, '\r\n') },
  },
  {
    name: 'finds the one @Override of the line in plain javac output, which has no column',
    files: { [F]: handler('  @Override', '  public void windowClosed(Event event) {}') },
    log: [`${PROJECT_ROOT}/${F}:6: error: ${MESSAGE}`, '  @Override', '  ^'],
    edit: { [F]: handler('  public void windowClosed(Event event) {}') },
  },
  {
    name: 'leaves the @Override alone when the class extends a type javac cannot find (the supertype is gone, not the method)',
    files: { [F]: handler('  @Override', '  public void windowClosed(Event event) {}') },
    log: [
      `[ERROR] ${PROJECT_ROOT}/${F}:[3,25] cannot find symbol`,
      '  symbol:   class WindowListener',
      '  location: package com.acme.events',
      `[ERROR] ${PROJECT_ROOT}/${F}:[5,33] cannot find symbol`,
      '  symbol: class WindowListener',
      stale(6, 3),
    ],
    edit: 'none',
  },
  {
    name: 'still removes it when the missing class is another one, not a supertype',
    files: { [F]: handler('  @Override', '  public void windowClosed(Event event) { new Toast(); }') },
    log: [`[ERROR] ${PROJECT_ROOT}/${F}:[7,47] cannot find symbol`, '  symbol:   class Toast', stale(6, 3)],
    edit: { [F]: handler('  public void windowClosed(Event event) { new Toast(); }') },
  },
  {
    name: 'refuses a line with two @Override when javac gave no column',
    files: { [F]: handler('  @Override void windowClosed() {} @Override void windowIconified() {}') },
    log: [`${PROJECT_ROOT}/${F}:6: error: ${MESSAGE}`],
    edit: 'none',
  },
  {
    name: 'refuses a position that holds no @Override',
    files: { [F]: handler('  @Override', '  public void windowClosed(Event event) {}') },
    log: [stale(7, 3)],
    edit: 'none',
  },
  {
    name: 'refuses a column that points at another annotation',
    files: { [F]: handler('  @Deprecated @Override', '  public void windowClosed(Event event) {}') },
    log: [stale(6, 3)],
    edit: 'none',
  },
  {
    name: 'refuses an @Override that is only text in a comment',
    files: { [F]: handler('  /* @Override */ public void windowClosed(Event event) {}') },
    log: [stale(6, 6)],
    edit: 'none',
  },
  {
    name: 'refuses an @Override on something other than a method',
    files: { [F]: handler('  @Override', '  private final Runnable windowClosed = () -> {};') },
    log: [stale(6, 3)],
    edit: 'none',
  },
  {
    name: 'refuses a whole file when one of its sites holds no @Override',
    files: {
      [F]: handler(
        '  @Override',
        '  public void windowClosed(Event event) {}',
        '  public void windowIconified(Event event) {}',
      ),
    },
    log: [stale(6, 3), stale(8, 3)],
    edit: 'none',
  },
  {
    name: 'leaves a diagnostic of another kind at an @Override to the others',
    files: { [F]: handler('  @Override', '  public void windowClosed(Event event) {}') },
    log: [
      `[ERROR] ${PROJECT_ROOT}/${F}:[6,4] cannot find symbol`,
      '  symbol:   class Override',
      '  location: class com.acme.ui.CloseHandler',
    ],
    edit: 'none',
    handled: false,
  },
]);
