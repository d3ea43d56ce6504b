import { useEffect, useState } from 'react';
import { openFiles } from '../../actions/open-database';

/** Drag and drop anywhere on the page. */
export function DropOverlay() {
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');
    const enter = (e: DragEvent) => {
      if (hasFiles(e)) {
        depth++;
        setDragging(true);
        e.preventDefault();
      }
    };
    const over = (e: DragEvent) => {
      if (hasFiles(e)) {
        e.preventDefault();
        e.dataTransfer!.dropEffect = 'copy';
      }
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      if (!e.dataTransfer?.files.length) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      void openFiles(e.dataTransfer.files);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);

  return dragging ? <div className="drop-overlay">Drop a SQLite file to open it</div> : null;
}
