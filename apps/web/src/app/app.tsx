import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppRoutes } from './app-routes.tsx';
import { Providers } from './providers.tsx';

// A data router, so a screen with unsaved changes can hold navigation (useBlocker); the routes
// themselves stay declared as <Routes> in AppRoutes, under one splat route.
const router = createBrowserRouter([{ path: '*', element: <AppRoutes /> }]);

/** The console: providers around the router. */
export function App() {
  return (
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  );
}
