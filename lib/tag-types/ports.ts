/** What tag types read of other resources: nothing; the tags in use are kept with the types. */
export type TagTypePorts = Record<never, never>;
