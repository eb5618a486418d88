// The two functions of semver (a dev dependency without bundled types) that the package-metadata test uses.
declare module 'semver' {
  const semver: {
    satisfies(version: string, range: string): boolean;
    minVersion(range: string): { version: string } | null;
  };
  export default semver;
}
