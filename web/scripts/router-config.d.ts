export declare const routerConfig: {
  routesDirectory: string;
  generatedRouteTree: string;
  quoteStyle: 'single';
  semicolons: boolean;
};
